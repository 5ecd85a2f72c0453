args: validate --serving serving/bad/truncated.json --model 70b --system aws-p4d
exit: 2
