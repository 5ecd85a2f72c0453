args: tp --model 70b --phase decode --batch 1 --wire nvlink4 --gpus 8 --json
exit: 0
