args: plan --model 70b --input 2048 --output 256 --ttft 2s --tpot 50ms --rate 5 --system aws-p5,aws-p4d,l40s-8 --fast
exit: 0
