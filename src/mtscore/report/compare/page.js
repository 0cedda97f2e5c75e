// mtscore comparison report: sortable tables and the example filter. The page reads fully without it.
"use strict";
(function () {
  function value(row, index) {
    var cell = row.children[index];
    if (!cell) return "";
    var v = cell.getAttribute("data-v");
    return v === null ? cell.textContent.trim().toLowerCase() : parseFloat(v);
  }
  function sortBy(table, header) {
    var index = Array.prototype.indexOf.call(header.parentNode.children, header);
    var ascending = header.getAttribute("aria-sort") !== "ascending";
    Array.prototype.forEach.call(header.parentNode.children, function (h) { h.removeAttribute("aria-sort"); });
    header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = value(a, index), y = value(b, index);
      var blankX = x === "" || (typeof x === "number" && isNaN(x)), blankY = y === "" || (typeof y === "number" && isNaN(y));
      if (blankX !== blankY) return blankX ? 1 : -1;
      var order = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
      return ascending ? order : -order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    if (!table.tHead || !table.tBodies.length) return;
    table.tHead.querySelectorAll("th").forEach(function (header) {
      header.tabIndex = 0;
      header.addEventListener("click", function () { sortBy(table, header); });
      header.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sortBy(table, header); }
      });
    });
  });
  function openTarget() {
    var target = location.hash && document.getElementById(location.hash.slice(1));
    if (target && target.tagName === "DETAILS") target.open = true;
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();
  var box = document.getElementById("filter-box"), input = document.getElementById("filter");
  if (box && input) {
    box.hidden = false;
    var examples = document.querySelectorAll(".example"), shown = document.getElementById("shown");
    input.addEventListener("input", function () {
      var query = input.value.toLowerCase(), count = 0;
      examples.forEach(function (example) {
        var match = example.textContent.toLowerCase().indexOf(query) !== -1;
        example.hidden = !match;
        if (match) count += 1;
      });
      shown.textContent = query ? count + " of " + examples.length + " shown" : "";
    });
  }
})();
