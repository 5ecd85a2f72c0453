args: tp --model 70b --batch 8
exit: 0
