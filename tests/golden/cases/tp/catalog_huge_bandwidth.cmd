args: tp --model 70b --wire slow --catalog catalogs/huge_bandwidth.json --json
exit: 2
