args: place --model 70b --gpu mi300x --gpus 4 --tp 4 --phase decode --context 1500 --tuning tuned
exit: 0
