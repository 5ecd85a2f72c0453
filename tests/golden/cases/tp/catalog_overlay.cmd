args: tp --model 70b --tokens 4096 --wire xdr,pcie5 --catalog catalogs/extra_link.json
exit: 0
