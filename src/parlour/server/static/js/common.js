// Helpers shared by the lobby and the table page. No game rule lives in the browser.

export const $ = (sel, root = document) => root.querySelector(sel);

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children) node.append(child);
  return node;
}

export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new Error(data.detail || data.message || `request failed (${response.status})`);
  }
  return data;
}

export function absolute(path) {
  return new URL(path, window.location.href).href;
}

export function copyRow(label, path) {
  const input = el("input", { readonly: true, value: absolute(path) });
  const copy = el("button", {
    class: "quiet", text: "Copy",
    onclick: async () => {
      input.select();
      try { await navigator.clipboard.writeText(input.value); copy.textContent = "Copied"; }
      catch { document.execCommand("copy"); }
    },
  });
  return el("div", { class: "link-row" }, el("span", { text: label }), input, copy);
}

export function newId() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return Date.now().toString(36) + Math.random().toString(36).slice(2);
}
