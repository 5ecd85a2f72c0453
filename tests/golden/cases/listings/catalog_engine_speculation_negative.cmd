args: engines --catalog catalogs/engine_speculation_negative.json
exit: 2
