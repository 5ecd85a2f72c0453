args: tp --model 70b --phase decode --context 4096 --wire nvlink4 --gpus 8 --sweep batch=1:64:x4 --json
exit: 0
