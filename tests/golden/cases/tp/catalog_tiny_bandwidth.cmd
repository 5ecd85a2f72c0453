args: tp --model 70b --wire slow --catalog catalogs/tiny_bandwidth.json
exit: 2
