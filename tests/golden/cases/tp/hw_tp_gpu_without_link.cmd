args: tp --model 70b --gpu l40s --wire nvlink5
exit: 2
