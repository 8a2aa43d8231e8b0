// The count page's board (数子): a tap on a stone marks its whole chain dead or alive again, and
// the dead-stone field (one point per chain, what the form saves) follows. The referee then
// saves; nothing is written by a tap. A static file: the pages' CSP allows no inline script.
(function () {
  "use strict";
  var board = document.getElementById("goban");
  var field = document.getElementById("dead");
  if (!board || !field || board.getAttribute("data-locked") === "1") {
    return;
  }
  function chainOf(k) {
    return board.querySelectorAll('circle.stone[data-chain="' + k + '"]');
  }
  function rebuild() {
    var seen = {};
    var heads = [];
    var dead = board.querySelectorAll("circle.stone.dead");
    for (var i = 0; i < dead.length; i++) {
      var k = dead[i].getAttribute("data-chain");
      if (!seen[k]) {
        seen[k] = true;
        heads.push(dead[i].getAttribute("data-p"));
      }
    }
    field.value = heads.join(" ");
  }
  board.addEventListener("click", function (e) {
    var t = e.target;
    if (!t || !t.classList || !t.classList.contains("stone")) {
      return;
    }
    var stones = chainOf(t.getAttribute("data-chain"));
    var dead = !t.classList.contains("dead");
    for (var i = 0; i < stones.length; i++) {
      stones[i].classList.toggle("dead", dead);
    }
    rebuild();
  });
})();
