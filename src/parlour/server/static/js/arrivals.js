// Who has not arrived yet at an invitation table, and the invitation to send them.
//
// A seat a friend was invited to has no name and nobody connected until the friend opens the
// link (their page then gives the table their name), so "not joined" is a person's seat with
// no name that nobody is at. The table's creator sees the invitation link above the board,
// with a Copy button, until everyone has come. Moving first is allowed (the move waits for
// the friend, as in a correspondence game); at a table with a clock the page says that the
// friend's time starts with that move.
import { $, copyRow, el } from "./common.js";
import { andList, t } from "./i18n.js";

// Every string a player reads here, in one place.
const TEXT = {
  statusMine: (names) => t("Your turn · {names} has not joined yet", { names }),
  statusMineMany: (names) => t("Your turn · {names} have not joined yet", { names }),
  title: (names) => t("Waiting for {names} to join", { names }),
  waiting: (name) => t("Waiting for {name} to join the table", { name }),
  send: t("Send this invitation link. It is their seat's key: send it to them only."),
  sendMany: t("Send each invitation link to one friend only: it is their seat's key."),
  first: t("You may make your first move now: it will be waiting for them."),
  clock: t("This table has a clock: once you move, your friend's time runs even before they arrive."),
  others: t("Waiting for the invited players to open their invitations."),
  link: (names) => t("Invitation for {names}", { names }),
};

// The seats of people who have not come yet (never named, nobody there), not held here.
export function missing(latest, mySeats) {
  if (!latest || latest.terminal || latest.started === false) return [];
  return latest.seats.filter((s) => s.kind === "human" && !s.name && !s.online &&
    !mySeats.includes(s.seat));
}

function names(seats, seatName) {
  return andList(seats.map((s) => seatName(s.seat)));
}

// The status line while it is this player's turn and someone has not joined (else null).
export function statusText(latest, mySeats, seatName) {
  const away = missing(latest, mySeats);
  if (!away.length) return null;
  if (away.some((s) => s.seat === latest.to_act)) return TEXT.waiting(seatName(latest.to_act));
  if (!mySeats.includes(latest.to_act)) return null;
  const who = names(away, seatName);
  return away.length > 1 ? TEXT.statusMineMany(who) : TEXT.statusMine(who);
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
    if (mySeats.includes(latest.to_act)) parts.push(el("p", { class: "muted", text: TEXT.first }));
    if (latest.clock) parts.push(el("p", { class: "attention", text: TEXT.clock }));
  } else {
    parts.push(el("p", { class: "muted", text: TEXT.others }));
  }
  box.replaceChildren(...parts);
}
