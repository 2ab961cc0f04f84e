/* The judges' service worker: pages a judge has opened keep working with no network.

   Served from /sw.js (so its scope is the whole site) by datasette_plugins.offline, which replaces
   CONFIG below with the site's root, the URL patterns of the judges' pages (the server's own), the
   style sheets to keep and a version that changes with them.
   Pages: network first (a copy is kept of every judges' page that loads), the kept copy when the
   network fails or is slower than CONFIG.patience_ms; a page never opened gets an offline page listing
   the pages that are kept. Style sheets: kept at install, served from the copy. */
const CONFIG = __CONFIG__;
const PAGES = "judges-pages";
const ASSETS = `judges-assets-${CONFIG.version}`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(ASSETS).then((cache) => cache.addAll(CONFIG.assets)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name.startsWith("judges-assets-") && name !== ASSETS).map((name) => caches.delete(name)));
      await self.clients.claim();
      // The page that registered this worker loaded before it: keep a copy of it (and any other open page).
      const windows = await self.clients.matchAll({ type: "window" });
      await Promise.all(windows.filter((client) => isPage(new URL(client.url))).map((client) => keep(new Request(client.url))));
    })()
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (CONFIG.assets.includes(url.pathname + url.search) || url.pathname.startsWith(CONFIG.root + "-/static")) {
    event.respondWith(caches.match(request).then((kept) => kept || fetch(request)));
  } else if (isPage(url)) {
    event.respondWith(networkFirst(request));
  }
});

const PAGE_PATTERNS = CONFIG.patterns.map((pattern) => new RegExp(pattern));

function isPage(url) {
  const path = "/" + url.pathname.slice(CONFIG.root.length);
  return PAGE_PATTERNS.some((pattern) => pattern.test(path));
}

async function keep(request) {
  const response = await fetch(request);
  if (response.ok) {
    const cache = await caches.open(PAGES);
    await cache.put(request, response.clone());
    await trim(cache);
  }
  return response;
}

async function trim(cache) {
  const keys = await cache.keys();
  await Promise.all(keys.slice(0, Math.max(0, keys.length - CONFIG.max_pages)).map((key) => cache.delete(key)));
}

async function networkFirst(request) {
  const kept = await caches.match(request, { ignoreVary: true });
  const network = keep(request);
  if (!kept) {
    return network.catch(() => (request.mode === "navigate" ? offlinePage(request) : Response.error()));
  }
  const slow = new Promise((resolve) => setTimeout(() => resolve(kept), CONFIG.patience_ms));
  return Promise.race([network.catch(() => kept), slow]);
}

async function offlinePage(request) {
  const cache = await caches.open(PAGES);
  const keys = (await cache.keys()).filter((key) => !new URL(key.url).pathname.endsWith(".json")).reverse();
  const escape = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const items = [];
  for (const key of keys) {
    const url = new URL(key.url);
    const kept = await cache.match(key);
    // The kept page's own title (already escaped HTML text, and free of "<" by the pattern).
    const title = kept ? /<title>([^<]*)<\/title>/.exec(await kept.text()) : null;
    const label = title ? title[1].trim() : escape(decodeURIComponent(url.pathname + url.search));
    items.push(`<li><a href="${escape(url.pathname + url.search)}">${label}</a></li>`);
  }
  const styles = CONFIG.assets.filter((asset) => asset.includes(".css")).map((href) => `<link rel="stylesheet" href="${escape(href)}">`).join("");
  const body = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Offline · Judges</title>
<meta name="viewport" content="width=device-width, initial-scale=1">${styles}</head>
<body class="judges"><header><nav><p class="crumbs"><a href="${escape(CONFIG.root)}">home</a></p></nav></header>
<section class="content"><h1>No network</h1>
<p class="offline-note">${escape(decodeURIComponent(new URL(request.url).pathname))} was not opened on this phone before, so there is no copy of it.</p>
<h2>Pages kept on this phone</h2><ul class="links">${items.join("") || "<li>None yet.</li>"}</ul></section></body></html>`;
  return new Response(body, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}
