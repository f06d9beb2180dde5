; Z3's fixedpoint format with a formula as the query (Hornbeam accepts one; Z3 wants a
; relation): inv(10) is derivable after ten steps, so the answer is `sat`.
(declare-rel inv (Int))
(declare-var x Int)
(declare-var y Int)
(rule (inv 0))
(rule (=> (and (inv x) (< x 10) (= y (+ x 1))) (inv y)))
(query (and (inv x) (= x 10)))
