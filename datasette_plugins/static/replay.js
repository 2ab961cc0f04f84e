// Replay pages: the arrow keys step through a replay by following the page's own Previous / Next links
// (rel="prev" / rel="next"); every step is a server-drawn page with its own URL, so nothing else needs script.
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  if (event.target.closest && event.target.closest("input, textarea, select, [contenteditable]")) return;
  const rel = { ArrowLeft: "prev", ArrowRight: "next" }[event.key];
  const link = rel && document.querySelector(`.step-nav a[rel="${rel}"]`);
  if (link) {
    event.preventDefault();
    window.location.assign(link.href);
  }
});

// Where the steps scroll on their own (beside the board, on a wide screen), the step shown is scrolled into view.
document.addEventListener("DOMContentLoaded", () => {
  const current = document.querySelector(".replay-main .judge-steps li.current");
  const list = current && current.closest(".judge-steps-section");
  if (list && list.scrollHeight > list.clientHeight) list.scrollTop = current.offsetTop - list.clientHeight / 3;
});
