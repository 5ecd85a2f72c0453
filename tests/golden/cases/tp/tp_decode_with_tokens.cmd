args: tp --model 70b --phase decode --tokens 4096
exit: 2
