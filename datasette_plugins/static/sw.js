/* The judges' service worker: pages a judge has opened, and every page of a game kept offline, work with no network.

   Served from /sw.js (so its scope is the whole site) by datasette_plugins.offline, which replaces
   CONFIG below with the site's root, the URL patterns of every judges' page (the server's own: replay pages
   and the dispute builder included), our static files to keep and a version that changes with them.
   Pages: network first (a copy is kept of every judges' page that loads, whether the browser navigated to it
   or a page's script fetched it), the kept copy when the network fails or is slower than CONFIG.patience_ms;
   a page never opened gets an offline page listing the pages that are kept.
   A game's offline pack (/offline/<game>, static/offline.js) fills a cache of its own, "judges-pack-<game>",
   never trimmed; its requests carry the header X-Judges-Pack and go straight to the network. A page kept
   there is refreshed there when it loads again.
   Static files (named by their content): kept at install and whenever fetched, served from the copy. */
const CONFIG = __CONFIG__;
const PAGES = "judges-pages";
const ASSETS = `judges-assets-${CONFIG.version}`;
const PACKS = "judges-pack-";

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
      await Promise.all(windows.filter((client) => isPage(new URL(client.url))).map((client) => keep(new Request(client.url)).catch(() => null)));
    })()
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || request.headers.has("X-Judges-Pack")) return;
  if (CONFIG.assets.includes(url.pathname + url.search) || url.pathname.startsWith(CONFIG.static) || url.pathname.startsWith(CONFIG.root + "-/static")) {
    event.respondWith(cacheFirst(request));
  } else if (isPage(url)) {
    event.respondWith(networkFirst(request));
  }
});

const PAGE_PATTERNS = CONFIG.patterns.map((pattern) => new RegExp(pattern));

function isPage(url) {
  const path = "/" + url.pathname.slice(CONFIG.root.length);
  return PAGE_PATTERNS.some((pattern) => pattern.test(path));
}

async function cacheFirst(request) {
  const kept = await caches.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await (await caches.open(ASSETS)).put(request, response.clone());
  return response;
}

/* The pack caches holding a copy of the request's page: the fresh copy goes there rather than among the
   pages opened (which keeps only the last CONFIG.max_pages). */
async function packsHolding(request) {
  const names = (await caches.keys()).filter((name) => name.startsWith(PACKS));
  const holding = [];
  for (const name of names) {
    const cache = await caches.open(name);
    if (await cache.match(request, { ignoreVary: true })) holding.push(cache);
  }
  return holding;
}

async function keep(request) {
  const response = await fetch(request);
  // A redirect's copy cannot answer a navigation: the page it leads to is kept when it loads.
  if (response.ok && !response.redirected) {
    const packs = await packsHolding(request);
    if (packs.length) {
      await Promise.all(packs.map((cache) => cache.put(request, response.clone())));
    } else {
      const cache = await caches.open(PAGES);
      await cache.put(request, response.clone());
      await trim(cache);
    }
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

const LISTED = 60; // pages opened listed on the offline page, the latest first

async function offlinePage(request) {
  const escape = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const cache = await caches.open(PAGES);
  const keys = (await cache.keys()).filter((key) => !new URL(key.url).pathname.endsWith(".json")).reverse().slice(0, LISTED);
  const items = [];
  for (const key of keys) {
    const url = new URL(key.url);
    const kept = await cache.match(key);
    // The kept page's own title (already escaped HTML text, and free of "<" by the pattern).
    const title = kept ? /<title>([^<]*)<\/title>/.exec(await kept.text()) : null;
    const label = title ? title[1].trim() : escape(decodeURIComponent(url.pathname + url.search));
    items.push(`<li><a href="${escape(url.pathname + url.search)}">${label}</a></li>`);
  }
  const packs = [];
  for (const name of (await caches.keys()).filter((name) => name.startsWith(PACKS))) {
    const game = name.slice(PACKS.length);
    const count = (await (await caches.open(name)).keys()).length;
    packs.push(`<li><a href="${escape(CONFIG.root + "offline/" + encodeURIComponent(game))}">${escape(game)}</a>: ${count} pages kept</li>`);
  }
  const styles = CONFIG.assets.filter((asset) => asset.includes(".css")).map((href) => `<link rel="stylesheet" href="${escape(href)}">`).join("");
  const body = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Offline · Judges</title>
<meta name="viewport" content="width=device-width, initial-scale=1">${styles}</head>
<body class="judges"><header><nav><p class="crumbs"><a href="${escape(CONFIG.root)}">home</a></p></nav></header>
<section class="content"><h1>No network</h1>
<p class="offline-note">${escape(decodeURIComponent(new URL(request.url).pathname + new URL(request.url).search))} was not opened on this phone before, so there is no copy of it.</p>
${packs.length ? `<h2>Games kept offline</h2><ul class="links packs">${packs.join("")}</ul>` : ""}
<h2>Pages opened on this phone</h2><ul class="links">${items.join("") || "<li>None yet.</li>"}</ul></section></body></html>`;
  return new Response(body, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}
