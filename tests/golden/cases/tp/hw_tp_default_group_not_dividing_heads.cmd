args: tp --model 70b --gpu gb200 --wire nvlink5
exit: 2
