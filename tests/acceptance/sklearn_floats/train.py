"""A random forest on scikit-learn's digits, one report with the held-out accuracy."""
import tunedeck
from sklearn.datasets import load_digits
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split


def main(config):
    x, y = load_digits(return_X_y=True)
    x_train, x_test, y_train, y_test = train_test_split(x, y, test_size=0.25, random_state=0)
    forest = RandomForestClassifier(n_estimators=config["n_estimators"],
                                    max_features=config["max_features"],
                                    max_samples=config["max_samples"],
                                    bootstrap=True, random_state=0, n_jobs=1)
    forest.fit(x_train, y_train)
    tunedeck.report({
        "accuracy": forest.score(x_test, y_test),
        # What scikit-learn made of the config: the features each split looks at.
        "features_per_split": forest.estimators_[0].max_features_,
        "max_features_type": type(config["max_features"]).__name__,
        "max_samples_type": type(config["max_samples"]).__name__,
    })


if __name__ == "__main__":
    main(tunedeck.get_config())
