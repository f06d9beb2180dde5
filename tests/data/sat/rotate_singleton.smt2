; snoc(l, x, r): r is the list l with x added at its end. rot(n, l, r): r is l rotated n times
; (each time the first element moves to the end). Rotating a one-element list gives it back.
; Invariant: snoc(l, x, r) := (is-cons l \/ (is-cons r /\ is-nil (tl r)))
;                             /\ (is-cons l \/ (is-cons r /\ hd r = x));
;            rot(n, l, r)  := (is-cons l /\ is-nil (tl l)) -> r = l.
(set-logic HORN)
(declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))
(declare-fun snoc (L Int L) Bool)
(declare-fun rot (Int L L) Bool)
(assert (forall ((x Int)) (snoc nil x (cons x nil))))
(assert (forall ((h Int) (t L) (x Int) (r L))
  (=> (snoc t x r) (snoc (cons h t) x (cons h r)))))
(assert (forall ((l L)) (rot 0 l l)))
(assert (forall ((n Int) (h Int) (t L) (m L) (r L))
  (=> (and (>= n 0) (snoc t h m) (rot n m r)) (rot (+ n 1) (cons h t) r))))
(assert (forall ((n Int) (x Int) (r L))
  (=> (and (rot n (cons x nil) r) (not (= r (cons x nil)))) false)))
(check-sat)
