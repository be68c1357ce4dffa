// On a phone the chat is far down the page, under the board and the panels: a small "Chat"
// button stays in the corner while the chat is out of sight, counts the messages that came
// since it was last seen, and takes the player there (the message box ready to type in).
import { $, el } from "./common.js";

const WORDS = {
  chat: "Chat",
  label: (n) => (n ? `Chat: ${n} new message${n === 1 ? "" : "s"}` : "Go to the chat"),
};

let unread = 0;
let inView = true;
let button = null;
let mine = () => [];

function show() {
  if (!button) return;
  button.hidden = inView;
  const badge = button.querySelector(".chat-count");
  badge.textContent = unread > 99 ? "99+" : String(unread);
  badge.hidden = unread === 0;
  button.classList.toggle("fresh", unread > 0);
  button.setAttribute("aria-label", WORDS.label(unread));
}

export function setup({ mySeats }) {
  const panel = $("#chat-panel");
  if (!panel) return;
  mine = mySeats;
  button = el("button", { id: "chat-jump", class: "chat-jump", type: "button", hidden: true },
    el("span", { class: "chat-bubble", "aria-hidden": "true" }),
    el("span", { class: "chat-word", text: WORDS.chat, "aria-hidden": "true" }),
    el("span", { class: "chat-count", "aria-hidden": "true", hidden: true }));
  button.addEventListener("click", () => {
    panel.scrollIntoView({ block: "end" });
    const input = $("#chat-text");
    if (input) input.focus({ preventScroll: true });
  });
  document.body.append(button);
  if ("IntersectionObserver" in window) {
    new IntersectionObserver((entries) => {
      for (const entry of entries) inView = entry.isIntersecting;
      if (inView) unread = 0;
      show();
    }, { threshold: 0.25 }).observe(panel);
  }
  document.addEventListener("parlour:chat", (event) => {
    const msg = event.detail || {};
    if (!inView && !(msg.seat !== null && msg.seat !== undefined && mine().includes(msg.seat))) unread += 1;
    show();
  });
}
