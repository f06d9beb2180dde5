; Two predicates in sequence: a loop counting i up to n, then a loop counting it back down.
; Inductive invariants: up(i, n) := (and (>= i 0) (<= i n)), down(i) := (>= i 0).
(set-logic HORN)
(declare-fun up (Int Int) Bool)
(declare-fun down (Int) Bool)
(assert (forall ((n Int)) (=> (>= n 0) (up 0 n))))
(assert (forall ((i Int) (n Int)) (=> (and (up i n) (< i n)) (up (+ i 1) n))))
(assert (forall ((i Int) (n Int)) (=> (and (up i n) (>= i n)) (down i))))
(assert (forall ((i Int)) (=> (and (down i) (> i 0)) (down (- i 1)))))
(assert (forall ((i Int)) (=> (and (down i) (< i 0)) false)))
(check-sat)
