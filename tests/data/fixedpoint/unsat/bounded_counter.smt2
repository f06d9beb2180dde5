; Z3's fixedpoint format. x counts from 0 up to 10 and never past it, so `err` is not
; derivable: Z3 and Hornbeam answer `unsat` (invariant: 0 <= x <= 10).
(declare-rel inv (Int))
(declare-rel err ())
(declare-var x Int)
(declare-var y Int)
(rule (inv 0))
(rule (=> (and (inv x) (< x 10) (= y (+ x 1))) (inv y)))
(rule (=> (and (inv x) (> x 10)) err))
(query err)
