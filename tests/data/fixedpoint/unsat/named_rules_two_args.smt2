; Z3's fixedpoint format with named rules and a relation of two arguments: x and y move in
; step, so `bad` (x /= y) is not derivable (invariant: x = y). Answer `unsat`.
(declare-rel r (Int Int))
(declare-rel bad ())
(declare-var x Int)
(declare-var y Int)
(declare-var x1 Int)
(declare-var y1 Int)
(rule (r 0 0) init)
(rule (=> (and (r x y) (= x1 (+ x 2)) (= y1 (+ y 2))) (r x1 y1)) step)
(rule (=> (and (r x y) (not (= x y))) bad) error)
(query bad :print-certificate true)
