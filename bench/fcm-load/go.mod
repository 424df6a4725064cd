module mockapns/bench/fcm-load

go 1.19
