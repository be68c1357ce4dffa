// The board and what the player acts on stay on the screen at a table (issue 65): the board's
// picture is sized to the room the screen has left once everything above it (the header, the
// status line, the how-to, notices, the clock) and the board's own action buttons right under
// it (the `[data-move]` buttons a board puts after its picture, such as "Draw a card") have
// their place, with a line for the
// table's message under it. So a clocked game, whose clocks take a line more above the board, or
// a tall board on a phone, never makes the player scroll to act (and scroll the status line and
// the header away). The page's stylesheet turns the room (`--room` on the play area) into the
// picture's size, within its own bounds (the column's width; on a phone, never so small that it
// cannot be read). Nothing here knows a game: each board draws itself; this only measures.
const MESSAGE_ROOM = 40;  // px under the board: the message line (an error, a notice)
const LEAST_ROOM = 160;   // px: a board is never squeezed below this, whatever the screen

let queued = false;

function measure(area, board) {
  queued = false;
  const pic = board.querySelector("svg.board-pic");
  if (!pic) return;
  const picBox = pic.getBoundingClientRect();
  if (!picBox.height) return;
  // what the player acts on under the picture: the move buttons a board puts right after it
  // (beside it, as its picture's next siblings); a tray of its own further down is not counted
  let actions = picBox.bottom;
  for (let next = pic.nextElementSibling; next; next = next.nextElementSibling) {
    for (const button of next.matches("[data-move]") ? [next] : next.querySelectorAll("[data-move]")) {
      const box = button.getBoundingClientRect();
      if (box.height && box.top >= picBox.bottom - 1) actions = Math.max(actions, box.bottom);
    }
  }
  const style = getComputedStyle(board);
  const frame = parseFloat(style.paddingBottom) + parseFloat(style.borderBottomWidth);
  const top = picBox.top + window.scrollY;  // where the picture starts with the page at its top
  const room = window.innerHeight - top - (actions - picBox.bottom) - frame - MESSAGE_ROOM;
  const value = `${Math.max(LEAST_ROOM, Math.floor(room))}px`;
  if (area.style.getPropertyValue("--room") !== value) area.style.setProperty("--room", value);
}

// Keep measuring: when the board is drawn again, when anything above or beside it changes
// size (a notice comes, the how-to is dismissed, the clock appears), and when the screen turns.
export function keepInView(area = document.querySelector(".play-area"), board = document.getElementById("board")) {
  if (!area || !board) return;
  const again = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => measure(area, board));
  };
  const sizes = new ResizeObserver(again);
  const watchChildren = () => {
    for (const child of area.children) if (child !== board) sizes.observe(child);
  };
  const header = document.querySelector("header.bar");
  if (header) sizes.observe(header);
  watchChildren();
  new MutationObserver(() => { watchChildren(); again(); }).observe(area, { childList: true });
  new MutationObserver(again).observe(board, { childList: true, subtree: true });
  window.addEventListener("resize", again);
  again();
}
