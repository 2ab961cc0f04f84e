// Replay pages. Every step is a server-drawn page with its own URL (?step=N#board), which works without script.
// Where script runs, a step link (Previous / Next, a step of the list, a deciding step of the verdict, the arrow
// keys) fetches that same page and swaps in its step bar, board and step list, without reloading the page; the
// address changes with it (Back and Forward step back and forth), and any failure falls back to opening the page.
(() => {
  const SWAPPED = [".stepper", ".judge-steps-section"];
  const STEP_LINKS = ".step-nav a[rel], ol.judge-steps a.step-link, ol.deciding a.deciding-step";

  // A link to another step of this very replay (the same page and what-if, another ?step=).
  function sameReplay(href) {
    const there = new URL(href, location.href);
    const here = new URL(location.href);
    if (there.origin !== here.origin || there.pathname !== here.pathname) return false;
    there.searchParams.delete("step");
    here.searchParams.delete("step");
    there.searchParams.sort();
    here.searchParams.sort();
    return there.search === here.search;
  }

  let asked = 0;
  async function show(href, push) {
    const ticket = ++asked;
    try {
      const response = await fetch(href, { credentials: "same-origin" });
      if (!response.ok) throw new Error(`${response.status}`);
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      if (ticket !== asked) return; // a later step was asked for meanwhile
      for (const selector of SWAPPED) {
        const mine = document.querySelector(selector);
        const theirs = page.querySelector(selector);
        if (!mine || !theirs) throw new Error(`no ${selector}`);
        mine.replaceWith(document.adoptNode(theirs));
      }
      document.title = page.title;
      if (push) history.pushState({ step: true }, "", href);
      const board = document.getElementById("board");
      if (board && new URL(href, location.href).hash === "#board") board.scrollIntoView({ block: "start" });
      showCurrent();
      const next = document.querySelector('.step-nav a[rel="next"]');
      (next || document.querySelector(".step-nav .step-count")).focus?.({ preventScroll: true });
    } catch (error) {
      window.location.assign(href);
    }
  }

  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const link = event.target.closest && event.target.closest(STEP_LINKS);
    if (!link || !sameReplay(link.href)) return;
    event.preventDefault();
    show(link.href, true);
  });

  window.addEventListener("popstate", () => {
    if (document.querySelector(".stepper")) show(location.href, false);
  });

  // The arrow keys follow the step bar's own Previous / Next links (rel="prev" / rel="next").
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.target.closest && event.target.closest("input, textarea, select, [contenteditable]")) return;
    const rel = { ArrowLeft: "prev", ArrowRight: "next" }[event.key];
    const link = rel && document.querySelector(`.step-nav a[rel="${rel}"]`);
    if (link) {
      event.preventDefault();
      if (sameReplay(link.href)) show(link.href, true);
      else window.location.assign(link.href);
    }
  });

  // Where the steps scroll on their own (beside the board, on a wide screen), the step shown is scrolled into view.
  function showCurrent() {
    const current = document.querySelector(".replay-main .judge-steps li.current");
    const list = current && current.closest(".judge-steps-section");
    if (list && list.scrollHeight > list.clientHeight) list.scrollTop = current.offsetTop - list.clientHeight / 3;
  }
  document.addEventListener("DOMContentLoaded", showCurrent);
})();
