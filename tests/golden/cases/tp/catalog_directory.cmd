args: tp --model 70b --catalog catalogs
exit: 2
