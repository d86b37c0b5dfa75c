"""The autograder: grades student search agents against reference trees and real games."""
