; let-bindings in clause bodies and heads.
; x := 0; while (x < 10) x += 3; assert x <= 12. Invariant: 0 <= x <= 12.
(set-logic HORN)
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int))
  (let ((next (+ x 3)) (go (< x 10)))
    (=> (and (inv x) go) (inv next)))))
(assert (forall ((x Int))
  (let ((bad (> x 12))) (=> (and (inv x) bad) false))))
(check-sat)
