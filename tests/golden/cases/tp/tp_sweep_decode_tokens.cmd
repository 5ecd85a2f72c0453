args: tp --model 70b --phase decode --sweep tokens=1:8
exit: 2
