args: tp --model 70b --tokens 4096 --wire ib-ndr
exit: 0
