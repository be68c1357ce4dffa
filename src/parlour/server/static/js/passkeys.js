// Passkeys (WebAuthn) in the browser: the server's options (JSON, binary fields base64url)
// turned into what navigator.credentials wants, and the answer turned back into JSON.
const b64 = {
  decode(text) {
    const s = text.replace(/-/g, "+").replace(/_/g, "/");
    const bin = atob(s + "=".repeat((4 - (s.length % 4)) % 4));
    return Uint8Array.from(bin, (c) => c.charCodeAt(0)).buffer;
  },
  encode(buffer) {
    const bytes = new Uint8Array(buffer);
    let bin = "";
    for (const b of bytes) bin += String.fromCharCode(b);
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  },
};

export const supported = () => Boolean(window.PublicKeyCredential && navigator.credentials);

export async function create(options) {
  const publicKey = {
    ...options,
    challenge: b64.decode(options.challenge),
    user: { ...options.user, id: b64.decode(options.user.id) },
    excludeCredentials: (options.excludeCredentials || []).map((c) => ({ ...c, id: b64.decode(c.id) })),
  };
  const credential = await navigator.credentials.create({ publicKey });
  return {
    id: credential.id,
    rawId: b64.encode(credential.rawId),
    type: credential.type,
    response: {
      clientDataJSON: b64.encode(credential.response.clientDataJSON),
      attestationObject: b64.encode(credential.response.attestationObject),
      transports: credential.response.getTransports ? credential.response.getTransports() : [],
    },
    clientExtensionResults: credential.getClientExtensionResults(),
  };
}

export async function get(options) {
  const publicKey = {
    ...options,
    challenge: b64.decode(options.challenge),
    allowCredentials: (options.allowCredentials || []).map((c) => ({ ...c, id: b64.decode(c.id) })),
  };
  const credential = await navigator.credentials.get({ publicKey });
  const r = credential.response;
  return {
    id: credential.id,
    rawId: b64.encode(credential.rawId),
    type: credential.type,
    response: {
      clientDataJSON: b64.encode(r.clientDataJSON),
      authenticatorData: b64.encode(r.authenticatorData),
      signature: b64.encode(r.signature),
      userHandle: r.userHandle ? b64.encode(r.userHandle) : null,
    },
    clientExtensionResults: credential.getClientExtensionResults(),
  };
}
