"""What passes between an adapter and the service: who acted, what to post, a refusal."""
