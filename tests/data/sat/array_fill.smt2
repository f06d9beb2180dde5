; Arrays: for (i := 0; i < n; i++) a[i] := 0; then n > 0 implies a[0] = 0.
; Invariant: i >= 0 and (i >= 1 implies a[0] = 0).
(set-logic HORN)
(declare-fun inv ((Array Int Int) Int Int) Bool)
(assert (forall ((a (Array Int Int)) (n Int)) (inv a 0 n)))
(assert (forall ((a (Array Int Int)) (i Int) (n Int))
  (=> (and (inv a i n) (< i n)) (inv (store a i 0) (+ i 1) n))))
(assert (forall ((a (Array Int Int)) (i Int) (n Int))
  (=> (and (inv a i n) (>= i n) (> n 0) (not (= (select a 0) 0))) false)))
(check-sat)
