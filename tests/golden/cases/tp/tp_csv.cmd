args: tp --model 70b --tokens 4096 --wire nvlink4,roce --format csv
exit: 0
