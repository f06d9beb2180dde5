; Z3's fixedpoint format: `(query inv)` asks whether inv holds of some value; it does of 0,
; so the query is derivable and the answer is `sat` (as Z3 prints it).
(declare-rel inv (Int))
(declare-var x Int)
(declare-var y Int)
(rule (inv 0) base)
(rule (=> (and (inv x) (< x 10) (= y (+ x 1))) (inv y)) step)
(query inv)
