// "Keep this game offline": every page of the game's pack (the page's JSON lists them, part by part) fetched once
// into a cache of its own, four at a time, with the progress shown; the service worker (sw.js) answers from that
// cache when there is no network. A list's following pages (its pager's "next" link) are fetched as they are found.
(() => {
  const form = document.querySelector("form.offline-pack");
  if (!form || !("caches" in window)) return;
  const button = form.querySelector("button[name=keep]");
  const removeButton = form.querySelector("button[name=remove]");
  const progress = form.querySelector("progress");
  const status = form.querySelector(".pack-status");
  const last = document.querySelector(".pack-last");
  const HEADERS = { "X-Judges-Pack": "1" };
  const AT_ONCE = 4;
  const megabytes = (bytes) => (bytes >= 1e5 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.ceil(bytes / 1000)} kB`);
  const storeKey = `judges-pack-${form.dataset.game}`;

  function showLast() {
    const held = JSON.parse(localStorage.getItem(storeKey) || "null");
    last.textContent = held
      ? `Kept on this phone on ${new Date(held.at).toLocaleString()}: ${held.pages} pages, ${megabytes(held.bytes)}, in ${held.seconds.toFixed(0)} s${held.failed ? ` (${held.failed} could not be fetched)` : ""}.`
      : "Not kept on this phone yet.";
    removeButton.hidden = !held;
  }

  // The page's link the part follows (a list's next page, a replay's next step), without its #fragment.
  function following(html, base, selector) {
    const found = new DOMParser().parseFromString(html, "text/html").querySelector(selector);
    if (!found) return null;
    const url = new URL(found.getAttribute("href"), base);
    url.hash = "";
    return url.href;
  }

  async function keepAll(event) {
    event.preventDefault();
    button.disabled = true;
    const started = performance.now();
    const chosen = new Set(new FormData(form).getAll("part"));
    const pack = await (await fetch(form.dataset.pack, { headers: HEADERS })).json();
    const queue = [];
    for (const part of pack.parts) {
      if (chosen.has(part.id)) for (const url of part.urls) queue.push({ url: new URL(url, location.href).href, follow: part.follow });
    }
    const seen = new Set(queue.map((item) => item.url));
    if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => false);
    const cache = await caches.open(pack.cache);
    let done = 0, bytes = 0, failed = 0, next = 0;
    progress.hidden = false;
    const show = () => {
      progress.max = queue.length;
      progress.value = done;
      status.textContent = `${done} of ${queue.length} pages kept, ${megabytes(bytes)}, ${((performance.now() - started) / 1000).toFixed(0)} s`;
    };
    async function fetchOne(item) {
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          const response = await fetch(item.url, { headers: HEADERS, credentials: "same-origin" });
          if (!response.ok || response.redirected) return false;
          const body = await response.clone().text();
          await cache.put(item.url, response);
          bytes += new Blob([body]).size;
          const more = item.follow && following(body, item.url, item.follow);
          if (more && !seen.has(more)) {
            seen.add(more);
            queue.push({ url: more, follow: item.follow });
          }
          return true;
        } catch (error) {
          if (attempt) return false;
        }
      }
      return false;
    }
    async function worker() {
      while (next < queue.length) {
        const item = queue[next++];
        if (!(await fetchOne(item))) failed++;
        done++;
        show();
      }
    }
    show();
    // A worker may end while another still adds a list's next page: go again until nothing is left.
    while (next < queue.length) await Promise.all(Array.from({ length: AT_ONCE }, worker));
    const seconds = (performance.now() - started) / 1000;
    const held = { pages: done - failed, bytes, seconds, failed, at: Date.now() };
    localStorage.setItem(storeKey, JSON.stringify(held));
    status.textContent = `Done: ${held.pages} pages kept, ${megabytes(bytes)}, in ${seconds.toFixed(0)} s.${failed ? ` ${failed} could not be fetched: try again.` : " They open with no network."}`;
    form.dataset.kept = String(held.pages);
    button.disabled = false;
    showLast();
  }

  async function removeAll(event) {
    event.preventDefault();
    await caches.delete(`judges-pack-${form.dataset.game}`);
    localStorage.removeItem(storeKey);
    status.textContent = "Removed from this phone.";
    showLast();
  }

  // The size of what is ticked, said again whenever a part is ticked or not.
  function showTotal() {
    let bytes = 0, pages = 0;
    for (const box of form.querySelectorAll("input[name=part]:checked")) {
      const size = box.closest("label").querySelector(".pack-size");
      bytes += Number(size.dataset.bytes);
      pages += Number(size.dataset.pages);
    }
    form.querySelector(".pack-total").textContent = `about ${megabytes(bytes)}, ${pages} pages`;
  }

  form.addEventListener("change", showTotal);
  button.disabled = false;
  button.addEventListener("click", keepAll);
  removeButton.addEventListener("click", removeAll);
  showLast();
})();
