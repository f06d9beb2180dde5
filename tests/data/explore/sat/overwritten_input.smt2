; `h` starts with any value (an uninitialised handle) and is set to 1 before the loop reads it;
; the loop counts c from 0 to 3 and only then checks h. The state space is finite once the
; arbitrary first value of h is taken as "any value", which nothing reads.
; Inductive invariant: (pc = 0 and c = 0) or (pc = 1 and h = 1 and 0 <= c <= 3).
(set-logic HORN)
(declare-fun s (Int Int Int) Bool)
(assert (forall ((pc Int) (h Int) (c Int)) (=> (and (= pc 0) (= c 0)) (s pc h c))))
(assert (forall ((pc Int) (h Int) (c Int) (pc2 Int) (h2 Int) (c2 Int))
  (=> (and (s pc h c)
           (or (and (= pc 0) (= pc2 1) (= h2 1) (= c2 c))
               (and (= pc 1) (< c 3) (= pc2 1) (= h2 h) (= c2 (+ c 1)))))
      (s pc2 h2 c2))))
(assert (forall ((pc Int) (h Int) (c Int)) (=> (and (s pc h c) (= pc 1) (not (= h 1))) false)))
(check-sat)
