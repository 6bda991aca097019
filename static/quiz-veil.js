/* Attention Explorer, guess first: with quiz=1 in the link, the example pre-rendered in
   index.html keeps its answer (bars, table, matrix, new card) out of sight until Python
   has drawn the question (static/style.css, html.quiz-pending). Plain JavaScript, run
   before the first paint; it reads the link only. */
(function () {
  "use strict";
  var quiz = new URLSearchParams(location.search).get("quiz");
  if (quiz !== null && ["1", "true", "on", "yes"].indexOf(quiz.trim().toLowerCase()) >= 0) {
    document.documentElement.classList.add("quiz-pending");
  }
})();
