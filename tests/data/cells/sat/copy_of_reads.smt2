; b takes a's value at each index below i: b's cell in the body must be read at b's head
; index, not at a's (the value written into b reads a; an abstraction that took b for a
; version of a put b's body cell at a's head index and could not prove this).
(set-logic HORN)
(declare-fun p ((Array Int Int) (Array Int Int) Int) Bool)
(assert (forall ((a (Array Int Int)) (b (Array Int Int)))
  (=> (= a ((as const (Array Int Int)) 2)) (p a b 0))))
(assert (forall ((a (Array Int Int)) (b (Array Int Int)) (c (Array Int Int)) (i Int))
  (=> (and (p a b i) (= c (store b i (select a i)))) (p a c (+ i 1)))))
(assert (forall ((a (Array Int Int)) (b (Array Int Int)) (i Int) (x Int))
  (=> (and (p a b i) (<= 0 x) (< x i) (not (= (select b x) 2))) false)))
(check-sat)
