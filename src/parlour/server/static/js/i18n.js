// The page's words in the reader's language: the server's catalog (the same gettext catalog
// the pages are rendered from), inline in the page (#i18n-catalog) or else fetched from
// /i18n/LANG.json, loaded once before any module uses it.
// t("Your turn") translates; t("{name} resigns", { name }) fills in names after translating;
// tn("{n} tile", "{n} tiles", n) picks the plural form by the language's rule; tc(context, "red")
// reads a word under a context (a colour agreeing with its noun). A message with
// no translation stays English. The header's language choice is remembered in a cookie (the
// server reads it to render pages) and in localStorage.

export const LANG = document.documentElement.lang || "en";
const COOKIE = "parlour_lang";
const STORE = "parlour.language";

async function load(language) {
  if (language === "en") return { messages: {}, plural: {} };
  const inline = document.getElementById("i18n-catalog");
  if (inline) {
    try { return JSON.parse(inline.textContent); } catch { /* fetched below */ }
  }
  try {
    const response = await fetch(`/i18n/${encodeURIComponent(language)}.json`);
    if (response.ok) return await response.json();
  } catch { /* offline: the English text */ }
  return { messages: {}, plural: {} };
}

const catalog = await load(LANG);
const rules = typeof Intl !== "undefined" && Intl.PluralRules ? new Intl.PluralRules(LANG) : null;

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

export function t(message, params) {
  const found = catalog.messages[message];
  return fill(typeof found === "string" && found ? found : message, params);
}

// A message read under a context (the catalog's msgctxt): tc("marble", "green") is the colour
// of a marble, which in French agrees with its noun ("verte"; the stomper's is "vert").
export function tc(context, message, params) {
  const found = catalog.messages[`${context}\u0004${message}`];
  return fill(typeof found === "string" && found ? found : message, params);
}

export function tn(singular, plural, n, params) {
  const forms = catalog.messages[singular];
  let text = n === 1 ? singular : plural;
  if (Array.isArray(forms) && rules) {
    const form = forms[catalog.plural[rules.select(n)] ?? (n === 1 ? 0 : 1)];
    if (form) text = form;
  }
  return fill(text, { n, ...params });
}

// Numbers as the reader writes them (1,5 in French).
export function number(value, options) {
  return new Intl.NumberFormat(LANG, options).format(value);
}

export function chooseLanguage(language) {
  document.cookie = `${COOKIE}=${encodeURIComponent(language)}; path=/; max-age=31536000; samesite=lax`;
  try { window.localStorage.setItem(STORE, language); } catch { /* private mode */ }
  window.location.reload();
}

function wireChoice() {  // the header's choice: names on a desktop, codes on a phone
  for (const select of document.querySelectorAll("select[data-language]")) {
    select.addEventListener("change", () => chooseLanguage(select.value));
  }
}

// A choice made in this browser before the cookie was lost (cleared cookies) comes back.
(function remembered() {
  let kept = null;
  try { kept = window.localStorage.getItem(STORE); } catch { /* private mode */ }
  if (kept && kept !== LANG && !document.cookie.includes(`${COOKIE}=`)) {
    const offered = [...document.querySelectorAll("select[data-language] option")].map((o) => o.value);
    if (offered.includes(kept)) chooseLanguage(kept);
  }
})();

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wireChoice);
else wireChoice();

// "Ann, Bob and Cy" in the reader's language.
export function andList(items) {
  const words = items.map(String);
  if (typeof Intl !== "undefined" && Intl.ListFormat) {
    return new Intl.ListFormat(LANG, { type: "conjunction" }).format(words);
  }
  return words.join(", ");
}
