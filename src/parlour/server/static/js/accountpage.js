// The account page: sign in or create an account (a guest), or for a signed-in player their
// passkeys, turn e-mails, password, signing out (here or everywhere) and deleting the account.
import { $, el } from "./common.js";
import { afterSignIn, header, profileUrl, send, whoami } from "./account.js";
import * as passkeys from "./passkeys.js";
import { LANG, t, tn } from "./i18n.js";

function back() {
  const next = new URLSearchParams(window.location.search).get("next");
  window.location.href = next && next.startsWith("/") && !next.startsWith("//") ? next : "/";
}

async function signedIn(data) {
  await afterSignIn(data.account);
  back();
}

function form(id, handler, message) {
  $(id).addEventListener("submit", async (event) => {
    event.preventDefault();
    const box = $(message);
    box.textContent = "";
    try { await handler(); } catch (err) { box.textContent = err.message; }
  });
}

function guest() {
  $("#guest").hidden = false;
  form("#signup-form", async () => signedIn(await send("POST", "/api/accounts", {
    username: $("#signup-name").value.trim(), password: $("#signup-password").value,
  })), "#signup-error");
  form("#signin-form", async () => signedIn(await send("POST", "/api/session", {
    username: $("#signin-name").value.trim(), password: $("#signin-password").value,
  })), "#signin-error");
  const button = $("#passkey-signin");
  button.hidden = !passkeys.supported();
  button.addEventListener("click", async () => {
    $("#signin-error").textContent = "";
    try {
      const start = await send("POST", "/api/session/passkey/options", {});
      const credential = await passkeys.get(start.options);
      await signedIn(await send("POST", "/api/session/passkey",
        { ceremony: start.ceremony, credential }));
    } catch (err) {
      $("#signin-error").textContent = err.name === "NotAllowedError"
        ? t("The passkey sign-in was cancelled.") : err.message;
    }
  });
}

async function drawPasskeys() {
  const list = $("#passkeys");
  let data;
  try { data = await send("GET", "/api/me/passkeys"); } catch { return; }
  list.replaceChildren(...data.passkeys.map((p) => el("li", {},
    el("span", { text: t("{name} · added {date}", { name: p.name, date: new Date(p.created_at * 1000).toLocaleDateString(LANG) }) }),
    el("button", { type: "button", class: "quiet small", text: t("Remove"),
      "aria-label": t("Remove the passkey {name}", { name: p.name }),
      onclick: async () => { await send("DELETE", `/api/me/passkeys/${p.id}`); drawPasskeys(); } }))));
  if (!data.passkeys.length) list.append(el("li", { class: "muted", text: t("No passkey yet.") }));
}

function member(account) {
  $("#member").hidden = false;
  $("#account-title").textContent = t("Your account: {username}", { username: account.username });
  $("#account-intro").hidden = true;
  $("#me-profile").textContent = account.username;
  $("#me-profile").href = profileUrl(account.username);
  $("#signout").addEventListener("click", async () => {
    await send("DELETE", "/api/session"); window.location.href = "/";
  });
  $("#signout-all").addEventListener("click", async () => {
    await send("DELETE", "/api/sessions"); window.location.href = "/";
  });
  $("#passkey-add").hidden = !passkeys.supported();
  $("#passkey-add").addEventListener("click", async () => {
    $("#passkey-error").textContent = "";
    try {
      const start = await send("POST", "/api/me/passkeys/options", {});
      const credential = await passkeys.create(start.options);
      await send("POST", "/api/me/passkeys", { ceremony: start.ceremony, credential });
      drawPasskeys();
    } catch (err) {
      $("#passkey-error").textContent = err.name === "NotAllowedError"
        ? t("Adding the passkey was cancelled.") : err.message;
    }
  });
  drawPasskeys();
  $("#mail-address").value = account.email || "";
  $("#mail-on").checked = Boolean(account.notify_email);
  if (account.email && !account.email_confirmed) {
    $("#mail-message").textContent = t("Waiting for you to open the link we sent to confirm the address.");
  }
  form("#mail-form", async () => {
    const data = await send("POST", "/api/me/email", {
      email: $("#mail-address").value.trim() || null, notify: $("#mail-on").checked });
    $("#mail-message").textContent = data.message;
  }, "#mail-message");
  form("#password-form", async () => {
    await send("POST", "/api/me/password", {
      current: $("#password-current").value, new: $("#password-new").value });
    $("#password-form").reset();
    $("#password-message").textContent = t("Changed. Every other browser is signed out.");
  }, "#password-message");
  form("#delete-form", async () => {
    await send("POST", "/api/me/delete", { password: $("#delete-password").value });
    window.location.href = "/";
  }, "#delete-message");
}

async function main() {
  await header();
  const account = await whoami();
  if (account) member(account); else guest();
}

main();
