// Who has not arrived yet at an invitation table, and the invitation to send them.
//
// The server keeps the game waiting until every invited player has opened their link: the
// state message's ``awaited`` lists those seats, and while it is not empty nobody may move and
// no clock runs (``started`` is false). The table's creator sees the invitation link above the
// board, with a Copy button, and until when it lasts; the status line says whom the game waits
// for. When the last one arrives, the game starts and the banner goes.
import { $, copyRow, el } from "./common.js";
import { andList, LANG, t } from "./i18n.js";

// Every string a player reads here, in one place.
const TEXT = {
  status: (names) => t("Waiting for {names} to join: the game starts when they arrive", { names }),
  statusMany: (names) => t("Waiting for {names} to join: the game starts when they all arrive", { names }),
  title: (names) => t("Waiting for {names} to join", { names }),
  send: t("Send this invitation link. It is their seat's key: send it to them only."),
  sendMany: t("Send each invitation link to one friend only: it is their seat's key."),
  held: t("Nobody can move, and no clock runs, until they open it."),
  heldMany: t("Nobody can move, and no clock runs, until they have all opened theirs."),
  expires: (when) => t("The invitation lasts until {when}; after that the table closes unplayed.", { when }),
  others: t("Waiting for the invited players to open their invitations."),
  link: (names) => t("Invitation for {names}", { names }),
};

// The invited seats the game still waits for, not held here.
export function missing(latest, mySeats) {
  if (!latest || latest.terminal) return [];
  const awaited = latest.awaited || [];
  return latest.seats.filter((s) => awaited.includes(s.seat) && !mySeats.includes(s.seat));
}

function names(seats, seatName) {
  return andList(seats.map((s) => seatName(s.seat)));
}

// The status line while the game waits for invited players (else null).
export function statusText(latest, mySeats, seatName) {
  const away = missing(latest, mySeats);
  if (!away.length) return null;
  const who = names(away, seatName);
  return away.length > 1 ? TEXT.statusMany(who) : TEXT.status(who);
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(LANG, { weekday: "long", hour: "2-digit", minute: "2-digit" });
}

// The banner above the board (``mySeats`` null: a spectator, who is shown none).
export function draw(latest, mySeats, seatName) {
  let box = $("#arrivals");
  if (!box) {
    box = el("section", { id: "arrivals", class: "arrivals", "aria-labelledby": "arrivals-title" });
    $("#board").before(box);
  }
  const away = mySeats === null ? [] : missing(latest, mySeats);
  box.hidden = away.length === 0;
  if (box.hidden) { box.replaceChildren(); return; }
  const invites = (latest.invites || []).filter((inv) => inv.seats.some((s) => away.some((a) => a.seat === s)));
  const parts = [el("h2", { id: "arrivals-title", text: TEXT.title(names(away, seatName)) })];
  if (invites.length) {
    parts.push(el("p", { text: invites.length > 1 ? TEXT.sendMany : TEXT.send }));
    for (const invite of invites) {
      parts.push(copyRow(TEXT.link(andList(invite.seats.map((s) => seatName(s)))), invite.url));
    }
  } else {
    parts.push(el("p", { class: "muted", text: TEXT.others }));
  }
  parts.push(el("p", { class: "muted", text: away.length > 1 ? TEXT.heldMany : TEXT.held }));
  if (latest.expires_at) parts.push(el("p", { class: "muted", text: TEXT.expires(when(latest.expires_at)) }));
  box.replaceChildren(...parts);
}
