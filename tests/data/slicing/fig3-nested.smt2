; Fig. 3 / Eq. 7 of Karpenkov and Monniaux (HVC 2016): two nested loops, heads A (outer) and
; B (inner), over x, y, p, s, c. Variables a transition does not mention keep their values.
;   tau1 (entry -> A): x' = 0, y' = 0, (p' = 1 and s') or (p' = 2 and not s'); c arbitrary
;   tau2 (A -> B):     x' = x + 1, c' = 100
;   tau3 (B -> B):     (p = 1 or p = 2) or (p != 1 and p != 2 and c' = 0); y' = y + 1, p' = p
;   tau4 (B -> A):     identity
; Property: in the inner loop, c = 100.
(set-logic HORN)
(declare-fun A (Int Int Int Bool Int) Bool)
(declare-fun B (Int Int Int Bool Int) Bool)
(assert (forall ((x Int) (y Int) (p Int) (s Bool) (c Int))
  (=> (and (= x 0) (= y 0) (or (and (= p 1) s) (and (= p 2) (not s))))
      (A x y p s c))))
(assert (forall ((x Int) (y Int) (p Int) (s Bool) (c Int))
  (=> (A x y p s c)
      (B (+ x 1) y p s 100))))
(assert (forall ((x Int) (y Int) (p Int) (s Bool) (c Int) (c1 Int))
  (=> (and (B x y p s c)
           (or (and (or (= p 1) (= p 2)) (= c1 c))
               (and (not (= p 1)) (not (= p 2)) (= c1 0))))
      (B x (+ y 1) p s c1))))
(assert (forall ((x Int) (y Int) (p Int) (s Bool) (c Int))
  (=> (B x y p s c) (A x y p s c))))
(assert (forall ((x Int) (y Int) (p Int) (s Bool) (c Int))
  (=> (and (B x y p s c) (not (= c 100))) false)))
(check-sat)
