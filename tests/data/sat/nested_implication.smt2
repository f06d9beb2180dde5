; Clauses written as nested implications (=> a (=> b c)).
; x := 0; while (x < 10) x += 2; assert x != 11. Invariant: 0 <= x <= 10.
(set-logic HORN)
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int)) (=> (inv x) (=> (< x 10) (inv (+ x 2))))))
(assert (forall ((x Int)) (=> (inv x) (=> (= x 11) false))))
(check-sat)
