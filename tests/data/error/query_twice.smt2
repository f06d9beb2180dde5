(declare-rel r (Int))
(rule (r 1))
(query r)
(query r)
