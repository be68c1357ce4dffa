// On a phone the chat is far down the page, under the board and the panels. A chat button in
// the header takes the player there at any time (the message box ready to type in); when
// messages come while the chat is out of sight, it counts them, and a button with the count
// also appears in the corner of the screen until they are read.
import { $, el } from "./common.js";
import { t, tn } from "./i18n.js";

const WORDS = {
  chat: t("Chat"),
  label: (n) => (n ? tn("Chat: {n} new message", "Chat: {n} new messages", n) : t("Go to the chat")),
};

let unread = 0;
let inView = true;
let buttons = [];
let mine = () => [];

function show() {
  for (const button of buttons) {
    const corner = button.id === "chat-jump";
    button.hidden = corner ? inView || unread === 0 : false;
    const badge = button.querySelector(".chat-count");
    badge.textContent = unread > 99 ? "99+" : String(unread);
    badge.hidden = unread === 0;
    button.classList.toggle("fresh", unread > 0);
    button.setAttribute("aria-label", WORDS.label(unread));
  }
}

function chatButton(id, className) {
  return el("button", { id, class: className, type: "button" },
    el("span", { class: "chat-bubble", "aria-hidden": "true" }),
    el("span", { class: "chat-count", "aria-hidden": "true", hidden: true }));
}

export function setup({ mySeats }) {
  const panel = $("#chat-panel");
  if (!panel) return;
  mine = mySeats;
  const go = () => {
    panel.scrollIntoView({ block: "end" });
    const input = $("#chat-text");
    if (input) input.focus({ preventScroll: true });
  };
  buttons = [chatButton("chat-link", "quiet icon chat-link"), chatButton("chat-jump", "chat-jump")];
  buttons[0].title = WORDS.chat;
  for (const button of buttons) button.addEventListener("click", go);
  const header = $("header.bar");
  header.insertBefore(buttons[0], $("#sound-toggle") || null);
  document.body.append(buttons[1]);
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
  show();
}
