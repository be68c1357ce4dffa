// A rated game's end: each player's rating change ("Ada 1500 → 1662 (+162)"), read once the
// server has stored it with the game's end, or why it changed no rating ("Not rated: ...").
import { $, api, el } from "./common.js";
import { profileUrl } from "./account.js";

let shownFor = null;

export async function draw(latest) {
  let line = $("#rating-change");
  if (!latest.terminal || !latest.rated) {
    if (line) line.hidden = true;
    return;
  }
  if (shownFor === latest.table) return;
  shownFor = latest.table;
  if (!line) {
    line = el("div", { id: "rating-change", class: "rating-line", role: "status" });
    $("#result-details").after(line);
  }
  let data;
  try { data = await api(`/api/tables/${latest.table}/ratings`); } catch { shownFor = null; return; }
  line.hidden = false;
  if (data.unrated) {
    line.replaceChildren(el("p", { class: "muted", text: data.unrated }));
    return;
  }
  line.replaceChildren(...data.changes.map((c) => el("p", { "data-seat": c.seat },
    el("a", { href: profileUrl(c.username), text: c.username }),
    ` ${c.before} → ${c.shown} `,
    el("span", { class: c.change >= 0 ? "up" : "down",
      text: `(${c.change >= 0 ? "+" : "−"}${Math.abs(c.change)})` }))));
}
