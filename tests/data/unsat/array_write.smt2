; Arrays: for (i := 0; i < 3; i++) a[i] := i; assert a[1] != 1 once i >= 2. Fails.
(set-logic HORN)
(declare-fun inv ((Array Int Int) Int) Bool)
(assert (forall ((a (Array Int Int))) (inv a 0)))
(assert (forall ((a (Array Int Int)) (i Int))
  (=> (and (inv a i) (< i 3)) (inv (store a i i) (+ i 1)))))
(assert (forall ((a (Array Int Int)) (i Int))
  (=> (and (inv a i) (>= i 2) (= (select a 1) 1)) false)))
(check-sat)
