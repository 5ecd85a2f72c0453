args: engines --catalog catalogs/engine_memory_fraction.json
exit: 2
