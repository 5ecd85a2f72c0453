args: tp --model 70b --impl custom --wire ib-ndr
exit: 2
