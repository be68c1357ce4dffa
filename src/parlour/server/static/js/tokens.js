// The account page's "Bots and programs" panel (issue 31): making this account a bot account
// (for good, before any game), and personal API tokens: made with their scopes, shown once,
// listed with when they were last used, revoked. Each token is a password for programs.
import { $, el } from "./common.js";
import { send, whoami } from "./account.js";
import { LANG, t } from "./i18n.js";

const SCOPE_WORDS = {
  "bot:play": t("Play as a bot (the Bot API and challenges; bot accounts only)"),
  "tables:read": t("Read your games"),
};

function when(time) {
  return time ? new Date(time * 1000).toLocaleString(LANG) : t("never");
}

async function listTokens() {
  const { tokens } = await send("GET", "/api/tokens");
  const list = $("#tokens");
  list.replaceChildren(...tokens.map((token) => el("li", { class: "token-row", "data-token": token.id },
    el("span", { text: t("{name}: {scopes}. Made {made}, last used {used}.", { name: token.name,
      scopes: token.scopes.map((s) => SCOPE_WORDS[s] || s).join("; "), made: when(token.created_at), used: when(token.used_at) }) + " " }),
    el("button", { type: "button", class: "small quiet", text: t("Revoke"),
      "aria-label": t("Revoke the token {name}", { name: token.name }),
      onclick: async () => {
        try { await send("DELETE", `/api/tokens/${token.id}`); await listTokens(); }
        catch (err) { $("#token-error").textContent = err.message; }
      } }))));
  if (!tokens.length) list.append(el("li", { class: "muted", text: t("No tokens yet.") }));
}

function scopeBoxes(account) {
  $("#token-scopes").replaceChildren(...Object.entries(SCOPE_WORDS).map(([scope, words]) => {
    const id = `scope-${scope.replace(":", "-")}`;
    const box = el("input", { type: "checkbox", id, value: scope,
      disabled: scope === "bot:play" && !account.bot, checked: scope === (account.bot ? "bot:play" : "tables:read") });
    return el("div", { class: "option check" }, box, el("label", { for: id, text: words }));
  }));
}

async function main() {
  const account = await whoami();
  const panel = $("#bots-panel");
  if (!account || !panel) return;
  panel.hidden = false;
  const botLine = $("#bot-status");
  botLine.textContent = account.bot
    ? t("This is a bot account: a program plays it through the Bot API (see the docs' \"Bots\" page).")
    : t("A bot account is played by a program. Only an account with no games becomes one, and it stays one.");
  $("#make-bot").hidden = account.bot;
  $("#make-bot").addEventListener("click", async () => {
    $("#token-error").textContent = "";
    if (!window.confirm(t("Make this account a bot account for good? It cannot be undone."))) return;
    try {
      const { account: now } = await send("POST", "/api/account/bot");
      Object.assign(account, now);
      $("#make-bot").hidden = true;
      botLine.textContent = t("This is a bot account now: make it a token with the bot scope.");
      scopeBoxes(account);
    } catch (err) { $("#token-error").textContent = err.message; }
  });
  scopeBoxes(account);
  $("#token-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("#token-error").textContent = "";
    const scopes = [...$("#token-scopes").querySelectorAll("input:checked")].map((b) => b.value);
    try {
      const made = await send("POST", "/api/tokens", { name: $("#token-name").value, scopes });
      $("#token-secret").textContent = made.token;
      $("#token-made").hidden = false;
      $("#token-name").value = "";
      await listTokens();
    } catch (err) { $("#token-error").textContent = err.message; }
  });
  await listTokens();
}

main();
