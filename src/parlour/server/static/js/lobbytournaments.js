// The lobby's tournaments: the ones being played now, then the upcoming ones open to join,
// each with its game, format and start, linking to its page.
import { $, api, el } from "./common.js";

const FORMATS = { "round-robin": "round robin", swiss: "Swiss" };
const SHOWN = 5;

function line(t) {
  const what = `${t.game_title}, ${FORMATS[t.format]}${t.rated ? ", rated" : ""}`;
  let state;
  if (t.status === "running") state = `round ${t.round} of ${t.rounds}`;
  else if (t.starts_at) state = `starts ${new Date(t.starts_at * 1000).toLocaleString([], { dateStyle: "medium", timeStyle: "short" })}`;
  else state = "open to join";
  return el("li", { class: "listing" },
    el("span", { class: "listing-title" }, el("a", { href: t.url, text: t.name }), el("span", { class: "muted", text: ` ${what}` })),
    el("span", { class: t.status === "running" ? "state mine" : "state", text: `${state} · ${t.players} player${t.players === 1 ? "" : "s"}` }),
    el("a", { class: "button quiet", href: t.url, text: t.status === "running" ? "Follow" : "Join",
      "aria-label": `${t.status === "running" ? "Follow" : "Join"} ${t.name}` }));
}

async function main() {
  let data;
  try { data = await api("/api/tournaments"); } catch { return; }
  const shown = [...data.running, ...data.upcoming].slice(0, SHOWN);
  $("#tournaments-list").replaceChildren(...shown.map(line));
  $("#tournaments").hidden = shown.length === 0;
}

main();
