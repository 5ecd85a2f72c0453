args: tp --model 70b --wire nvlink4 --engine tgi
exit: 2
